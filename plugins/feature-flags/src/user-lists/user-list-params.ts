/** The user list routes' params. This API formats its errors as `{"message": ...}`. */
import { f, params } from '@forgekit/kernel';

export const listUserListParams = params({ search: f.optional(f.string()) });

export const createUserListParams = params({ name: f.string(), user_xids: f.string() });

export const updateUserListParams = params({ name: f.optional(f.string()), user_xids: f.optional(f.string()) });
