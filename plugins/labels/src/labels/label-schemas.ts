/** JSON Schemas of the label answers (`label-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `LabelBasic`'s details: what an issue or merge request shows of a label `with_labels_details`. */
export const labelDetailsSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    color: { type: 'string' },
    description: { type: ['string', 'null'] },
    description_html: { type: 'string' },
    text_color: { type: 'string' },
    archived: { type: 'boolean' },
  },
  required: ['id', 'name', 'color', 'description', 'description_html', 'text_color', 'archived'],
};

/** `Label` (group routes) and `ProjectLabel` (project routes, with `priority` and `is_project_label`); counts `with_counts`. */
export const labelSchema: JsonSchema = {
  allOf: [
    labelDetailsSchema,
    {
      type: 'object',
      properties: {
        open_issues_count: { type: 'integer' },
        closed_issues_count: { type: 'integer' },
        open_merge_requests_count: { type: 'integer' },
        subscribed: { type: 'boolean' },
        priority: { type: ['integer', 'null'] },
        is_project_label: { type: 'boolean' },
      },
      required: ['subscribed'],
    },
  ],
};
