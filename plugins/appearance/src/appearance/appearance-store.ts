import type { Database } from '@forgekit/kernel';
import { AppearanceEntity, type AppearanceRow } from '../entities/appearance.js';

/** GitLab keeps exactly one appearance; this is its id. */
export const APPEARANCE_ID = 1;

export type AppearanceValues = Omit<AppearanceRow, 'id' | 'createdAt' | 'updatedAt'>;

export const DEFAULT_APPEARANCE: AppearanceValues = {
  title: '',
  description: '',
  pwaName: '',
  pwaShortName: '',
  pwaDescription: '',
  memberGuidelines: '',
  newProjectGuidelines: '',
  profileImageGuidelines: '',
  headerMessage: '',
  footerMessage: '',
  messageBackgroundColor: '#E75E40',
  messageFontColor: '#FFFFFF',
  emailHeaderAndFooterEnabled: false,
  logo: null,
  headerLogo: null,
  favicon: null,
  pwaIcon: null,
};

export function createAppearanceStore(database: Database) {
  return {
    find: (): Promise<AppearanceRow | undefined> => database.row(database.from(AppearanceEntity).where({ id: APPEARANCE_ID })),
    /** Writes the one row, creating it on the first save. */
    async save(values: AppearanceValues, createdAt: Date) {
      await database.upsertMany(AppearanceEntity, [{ id: APPEARANCE_ID, ...values, createdAt, updatedAt: new Date() }]);
    },
  };
}

export type AppearanceStore = ReturnType<typeof createAppearanceStore>;
