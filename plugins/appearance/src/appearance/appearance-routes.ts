import { defineRoute, f, notFound, params, stream, type Route } from '@forgekit/kernel';
import { lookup } from 'mime-types';
import { TEXT_FIELDS, imagePath, type AppearanceService } from './appearance-service.js';
import { appearanceSchema } from './appearance-schemas.js';
import type { AppearanceValues } from './appearance-store.js';

export function presentAppearance(values: AppearanceValues) {
  return {
    title: values.title,
    description: values.description,
    pwa_name: values.pwaName,
    pwa_short_name: values.pwaShortName,
    pwa_description: values.pwaDescription,
    pwa_icon: imagePath('pwa_icon', values.pwaIcon),
    logo: imagePath('logo', values.logo),
    header_logo: imagePath('header_logo', values.headerLogo),
    favicon: imagePath('favicon', values.favicon),
    member_guidelines: values.memberGuidelines,
    new_project_guidelines: values.newProjectGuidelines,
    profile_image_guidelines: values.profileImageGuidelines,
    header_message: values.headerMessage,
    footer_message: values.footerMessage,
    message_background_color: values.messageBackgroundColor,
    message_font_color: values.messageFontColor,
    email_header_and_footer_enabled: values.emailHeaderAndFooterEnabled,
  };
}

const input = params({
  ...(Object.fromEntries(Object.keys(TEXT_FIELDS).map((name) => [name, f.optional(f.string())])) as Record<
    keyof typeof TEXT_FIELDS,
    ReturnType<typeof f.optional<string>>
  >),
  email_header_and_footer_enabled: f.optional(f.boolean()),
  logo: f.optional(f.file()),
  header_logo: f.optional(f.file()),
  favicon: f.optional(f.file()),
  pwa_icon: f.optional(f.file()),
});

export function appearanceRoutes(service: AppearanceService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/application/appearance',
      auth: 'admin',
      response: { schema: appearanceSchema },
      handler: async () => presentAppearance(await service.current()),
    }),
    defineRoute({
      method: 'PUT',
      path: '/application/appearance',
      auth: 'admin',
      uploads: true,
      input,
      response: { schema: appearanceSchema },
      handler: async (_ctx, given) => presentAppearance(await service.update(given)),
    }),
    // The images are public, as the sign-in page shows them.
    defineRoute({
      method: 'GET',
      path: '/uploads/-/system/appearance/:field/:id/:filename',
      raw: true,
      auth: 'none',
      // The image's own type, by its name's extension.
      response: { contentType: 'image/*' },
      async handler(ctx) {
        const found = await service.image(ctx.params.field!, ctx.params.filename!);
        if (!found) throw notFound();
        return stream(200, found.stream, lookup(ctx.params.filename!) || 'application/octet-stream', { 'Content-Length': String(found.size) });
      },
    }),
  ];
}
