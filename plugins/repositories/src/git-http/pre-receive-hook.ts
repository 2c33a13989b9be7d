/**
 * The pre-receive hook a push runs with when rules apply to its refs. git runs it once the
 * pack is received and before any ref moves, with the pushed objects readable, so it can
 * tell a rewrite from a fast-forward. A refusal declines the whole push: git shows the
 * message as `remote:` output and every ref as `[remote rejected] (pre-receive hook declined)`.
 *
 * It is a POSIX shell script, because git runs hooks as programs; the rules come in its
 * environment, one line per ref: `<refuse rewrite: 0|1> <refusal number, 0 for none> <ref>`
 * (ref names hold no whitespace), each refusal's text in `FORGEKIT_PUSH_REFUSAL_<n>`.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH_MESSAGES, type RefRule } from './push-rules.js';

const SCRIPT = `#!/bin/sh
zero=0000000000000000000000000000000000000000
while read -r old new ref; do
  rewrite=0
  refusal=0
  while read -r rule_rewrite rule_refusal rule_ref; do
    if [ "$rule_ref" = "$ref" ]; then
      rewrite=$rule_rewrite
      refusal=$rule_refusal
      break
    fi
  done <<EOF
$FORGEKIT_PUSH_RULES
EOF
  if [ "$rewrite" = 1 ] && [ "$old" != "$zero" ] && [ "$new" != "$zero" ] && ! git merge-base --is-ancestor "$old" "$new"; then
    printf '%s\\n' "$FORGEKIT_PUSH_REWRITE_REFUSAL" >&2
    exit 1
  fi
  if [ "$refusal" != 0 ]; then
    eval "message=\\"\\$FORGEKIT_PUSH_REFUSAL_$refusal\\""
    printf '%s\\n' "$message" >&2
    exit 1
  fi
done
exit 0
`;

let hooksDir: string | undefined;

/** A directory holding the hook, written once per process. */
function hookDirectory(): string {
  if (!hooksDir) {
    const dir = mkdtempSync(join(tmpdir(), 'forgekit-hooks-'));
    const file = join(dir, 'pre-receive');
    writeFileSync(file, SCRIPT);
    chmodSync(file, 0o755);
    hooksDir = dir;
  }
  return hooksDir;
}

/** The git config and environment that make a receive-pack enforce the rules (none when no rule applies). */
export function preReceiveHook(rules: RefRule[]): { config: string[]; env: Record<string, string> } {
  if (rules.length === 0) return { config: [], env: {} };
  const refusals: string[] = [];
  const lines = rules.map((rule) => {
    let number = 0;
    if (rule.refusal) {
      refusals.push(rule.refusal);
      number = refusals.length;
    }
    return `${rule.refuseRewrite ? 1 : 0} ${number} ${rule.ref}`;
  });
  const env: Record<string, string> = { FORGEKIT_PUSH_RULES: lines.join('\n'), FORGEKIT_PUSH_REWRITE_REFUSAL: PUSH_MESSAGES.forcePushProtected };
  for (const [index, text] of refusals.entries()) env[`FORGEKIT_PUSH_REFUSAL_${index + 1}`] = text;
  return { config: ['-c', `core.hooksPath=${hookDirectory()}`], env };
}
