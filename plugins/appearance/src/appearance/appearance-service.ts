/** GitLab's appearance rules: colours, lengths, image types and sizes; files kept in the kernel's storage. */
import { extname } from 'node:path';
import { longerThan, TEXT_LIMIT, tooLongMessage, validationFailed, type FileStorage, type StoredFile, type UploadedFile } from '@forgekit/kernel';
import { DEFAULT_APPEARANCE, type AppearanceStore, type AppearanceValues } from './appearance-store.js';

export const IMAGE_FIELDS = ['logo', 'header_logo', 'favicon', 'pwa_icon'] as const;
export type ImageField = (typeof IMAGE_FIELDS)[number];

export const TEXT_FIELDS = {
  title: 255,
  description: TEXT_LIMIT,
  pwa_name: 255,
  pwa_short_name: 255,
  pwa_description: 2048,
  member_guidelines: TEXT_LIMIT,
  new_project_guidelines: TEXT_LIMIT,
  profile_image_guidelines: 4096,
  header_message: TEXT_LIMIT,
  footer_message: TEXT_LIMIT,
  message_background_color: 16,
  message_font_color: 16,
} as const;
export type TextField = keyof typeof TEXT_FIELDS;

export type AppearanceInput = Partial<Record<TextField, string | null>> & {
  email_header_and_footer_enabled?: boolean | null;
} & Partial<Record<ImageField, UploadedFile | null>>;

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];
const FAVICON_TYPES = ['png', 'ico'];
const MAX_IMAGE_BYTES = 1024 * 1024;
/** CarrierWave's rule: anything but word characters, `.`, `-` and `+` becomes `_`. */
const UNSAFE = /[^\p{L}\p{M}\p{Nd}\p{Pc}.\-+]/gu;

const camel = (name: string): string => name.replace(/_(.)/g, (_all, char: string) => char.toUpperCase());
const storageKey = (field: ImageField, name: string) => `appearance/${field}/1/${name}`;
export const imagePath = (field: ImageField, name: string | null | undefined) =>
  name ? `/uploads/-/system/${storageKey(field, encodeURIComponent(name))}` : null;

function imageErrors(field: ImageField, file: UploadedFile) {
  const type = extname(file.filename).slice(1).toLowerCase();
  const allowed = field === 'favicon' ? FAVICON_TYPES : IMAGE_TYPES;
  if (!allowed.includes(type)) return [`You are not allowed to upload "${type}" files, allowed types: ${allowed.join(', ')}`];
  if (field !== 'favicon' && file.size > MAX_IMAGE_BYTES) return ['is too big (should be at most 1 MiB)'];
  return [];
}

export function createAppearanceService(store: AppearanceStore, files: FileStorage) {
  return {
    async current(): Promise<AppearanceValues> {
      return (await store.find()) ?? DEFAULT_APPEARANCE;
    },

    async update(input: AppearanceInput) {
      const errors: Record<string, string[]> = {};
      for (const [field, max] of Object.entries(TEXT_FIELDS)) {
        const value = input[field as TextField];
        if (typeof value === 'string' && longerThan(value, max)) errors[field] = [tooLongMessage(max)];
      }
      for (const field of ['message_background_color', 'message_font_color'] as const) {
        const value = input[field];
        if (value && !COLOR.test(value)) errors[field] = [...(errors[field] ?? []), 'must be a valid color code'];
      }
      for (const field of IMAGE_FIELDS) {
        const file = input[field];
        const problems = file ? imageErrors(field, file) : [];
        if (problems.length) errors[field] = problems;
      }
      if (Object.keys(errors).length) throw validationFailed(errors);

      const existing = await store.find();
      const values: AppearanceValues = { ...DEFAULT_APPEARANCE, ...existing };
      const patch = values as unknown as Record<string, unknown>;
      for (const field of Object.keys(TEXT_FIELDS) as TextField[]) {
        const value = input[field];
        if (value !== undefined) patch[camel(field)] = value ?? '';
      }
      if (input.email_header_and_footer_enabled !== undefined && input.email_header_and_footer_enabled !== null)
        values.emailHeaderAndFooterEnabled = input.email_header_and_footer_enabled;
      for (const field of IMAGE_FIELDS) {
        const file = input[field];
        if (!file) continue;
        const name = file.filename.replace(UNSAFE, '_').slice(-255) || 'file';
        await files.delete(`appearance/${field}/1`);
        await files.moveIn(storageKey(field, name), file.path);
        patch[camel(field)] = name;
      }
      await store.save(values, existing?.createdAt ?? new Date());
      return values;
    },

    /** The stored image of a field, if the appearance names that file. */
    async image(field: string, name: string): Promise<StoredFile | null> {
      if (!(IMAGE_FIELDS as readonly string[]).includes(field)) return null;
      const current = (await store.find()) as unknown as Record<string, unknown> | undefined;
      if (!current || current[camel(field)] !== name) return null;
      return files.open(storageKey(field as ImageField, name));
    },
  };
}

export type AppearanceService = ReturnType<typeof createAppearanceService>;
