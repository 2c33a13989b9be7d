/** Wiki pages on the wire: GitLab's `WikiPageBasic` (lists) and `WikiPage` (one page, create, update, lists with content). */
import type { WikiFormat } from './page-paths.js';

export interface ShownPage {
  slug: string;
  title: string;
  format: WikiFormat;
}

export const presentBasic = (page: ShownPage, metaId: number) => ({ format: page.format, slug: page.slug, title: page.title, wiki_page_meta_id: metaId });

export const presentPage = (page: ShownPage & { frontMatter: Record<string, unknown> }, content: string) => ({
  format: page.format,
  slug: page.slug,
  title: page.title,
  content,
  encoding: 'UTF-8',
  front_matter: page.frontMatter,
});

export interface Attachment {
  fileName: string;
  filePath: string;
  branch: string;
  markdown: string;
}

export const presentAttachment = (attachment: Attachment) => ({
  file_name: attachment.fileName,
  file_path: attachment.filePath,
  branch: attachment.branch,
  link: { url: attachment.filePath, markdown: attachment.markdown },
});
