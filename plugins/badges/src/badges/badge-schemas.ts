/** JSON Schemas of the badge answers (`badge-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `BasicBadgeDetails`: what a render request answers. */
export const badgePreviewSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: ['string', 'null'] },
    link_url: { type: 'string' },
    image_url: { type: 'string' },
    rendered_link_url: { type: 'string' },
    rendered_image_url: { type: 'string' },
  },
  required: ['name', 'link_url', 'image_url', 'rendered_link_url', 'rendered_image_url'],
};

/** `Badge`: a kept badge of a project or a group. */
export const badgeSchema: JsonSchema = {
  allOf: [
    badgePreviewSchema,
    {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        kind: { type: 'string', enum: ['project', 'group'] },
      },
      required: ['id', 'kind'],
    },
  ],
};
