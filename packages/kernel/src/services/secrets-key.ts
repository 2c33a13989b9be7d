/**
 * Where the secrets key comes from (the setting, a key file, or a key generated in the
 * data dir at first start), and the boot-time guard that every process sharing one
 * database seals with the same key.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Knex } from '@mikro-orm/knex';
import { BootError } from '../plugin/boot-order.js';
import type { Logger } from './logger.js';
import { createSecrets, generateSecretsKey, MIN_SECRETS_KEY_LENGTH, secretsKeyCheck, type Secrets } from './secrets.js';

/** One row: the check of the key this database's secrets are sealed with. */
export const KEY_CHECK_TABLE = 'secrets_key_check';
/** The key file generated in the data dir when no key is configured. */
export const GENERATED_KEY_FILE = 'secrets.key';

const SETTINGS = 'FORGEKIT_SECRETS_KEY (config key `secretsKey`) or FORGEKIT_SECRETS_KEY_FILE (`secretsKeyFile`)';

export interface SecretsKeyOptions {
  secretsKey?: string;
  secretsKeyFile?: string;
  dataDir: string;
  knex: Knex;
  log: Logger;
}

interface KeySource {
  /** The key text, or undefined when it is still to be generated at `file`. */
  key: string | undefined;
  file?: string;
  /** Where the key came from, for error messages (never the key itself). */
  origin: string;
}

const GENERATED = 'generated in the data dir';

/** The key text in `file`; undefined when the file does not exist. */
function readKeyFile(file: string, setting: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BootError(`The secrets key file ${file} (${setting}) cannot be read: ${(error as Error).message}`);
  }
  if (text.length < MIN_SECRETS_KEY_LENGTH) throw new BootError(`The secrets key in ${file} (${setting}) is shorter than ${MIN_SECRETS_KEY_LENGTH} characters`);
  return text;
}

function keySource(options: SecretsKeyOptions): KeySource {
  if (options.secretsKey && options.secretsKeyFile) throw new BootError(`Set only one of ${SETTINGS}, not both`);
  if (options.secretsKey) return { key: options.secretsKey, origin: 'from FORGEKIT_SECRETS_KEY (`secretsKey`)' };
  if (options.secretsKeyFile) {
    const file = resolve(options.secretsKeyFile);
    const key = readKeyFile(file, 'FORGEKIT_SECRETS_KEY_FILE');
    if (key === undefined) throw new BootError(`The secrets key file ${file} (FORGEKIT_SECRETS_KEY_FILE) does not exist`);
    return { key, file, origin: `in ${file} (FORGEKIT_SECRETS_KEY_FILE)` };
  }
  const file = join(resolve(options.dataDir), GENERATED_KEY_FILE);
  return { key: readKeyFile(file, GENERATED), file, origin: `in ${file} (${GENERATED})` };
}

/**
 * Writes a new key readable by this user only. The key is written to a temporary file
 * and linked into place, so a process starting at the same moment on the same data dir
 * reads either no file or the whole key; the one that loses the race uses the winner's.
 */
function generateKeyFile(file: string, log: Logger): string {
  mkdirSync(dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, `${generateSecretsKey()}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
    log.info({ keyFile: file }, 'secrets key generated; give every server process on this database the same key');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new BootError(`Cannot write the secrets key file ${file}: ${(error as Error).message}`);
  } finally {
    rmSync(draft, { force: true });
  }
  return readKeyFile(file, GENERATED)!;
}

/** Resolves the key, checks it against the database (recording it there on first use) and returns the sealing service. */
export async function openSecrets(options: SecretsKeyOptions): Promise<Secrets> {
  const source = keySource(options);
  const recorded: { key_check: string } | undefined = await options.knex(KEY_CHECK_TABLE).where('id', 1).first('key_check');
  if (source.key === undefined && recorded) {
    throw new BootError(
      `This database's secrets are sealed with a key this process does not have (there is no ${source.file}). ` +
        `Set ${SETTINGS} to the key the other server processes use.`,
    );
  }
  const key = source.key ?? generateKeyFile(source.file!, options.log);
  const check = secretsKeyCheck(key);
  if (!recorded) {
    // Processes starting together on a new database: the first check written wins.
    await options.knex(KEY_CHECK_TABLE).insert({ id: 1, key_check: check, created_at: new Date() }).onConflict('id').ignore();
  }
  const stored: { key_check: string } = recorded ?? (await options.knex(KEY_CHECK_TABLE).where('id', 1).first('key_check'));
  if (stored.key_check !== check) {
    throw new BootError(
      `The secrets key ${source.origin} is not the key this database's secrets are sealed with. ` +
        `Every server process on one database needs the same key: set ${SETTINGS} to it.`,
    );
  }
  return createSecrets(key);
}
