import { randomBytes } from 'node:crypto';

import type { Command } from 'commander';

import { createUser, disableUser, listUsers, resetPassword } from '../console/store.js';
import type { StateStore } from '../state/store.js';

/**
 * The password: from `--password-stdin` (one line), or generated and printed once. Never an argument,
 * where it would stay in the shell history and the process list.
 */
async function passwordFrom(opts: { passwordStdin?: boolean }): Promise<{ password: string; generated: boolean }> {
  if (!opts.passwordStdin) return { password: randomBytes(12).toString('base64url'), generated: true };
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return { password: Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '', generated: false };
}

/** `recapito user create|reset|disable|list`: the people who sign in to the web console. */
export function registerUserCommands(program: Command, state: () => Promise<StateStore>): void {
  const user = program.command('user').description('console users (people who sign in at /console)');
  user
    .command('create')
    .requiredOption('--account <name>', 'account the user belongs to')
    .requiredOption('--email <email>', 'e-mail the user signs in with')
    .option('--password-stdin', 'read the password from standard input instead of generating one')
    .action(async (opts: { account: string; email: string; passwordStdin?: boolean }) => {
      const { password, generated } = await passwordFrom(opts);
      const u = await createUser(await state(), opts.account, opts.email, password);
      console.log(`user ${u.email} created for account ${u.account}`);
      if (generated) console.log(`password (shown once): ${password}`);
    });
  user
    .command('reset')
    .requiredOption('--email <email>')
    .option('--password-stdin', 'read the new password from standard input instead of generating one')
    .description('new password; signs the user out everywhere and enables a disabled user')
    .action(async (opts: { email: string; passwordStdin?: boolean }) => {
      const { password, generated } = await passwordFrom(opts);
      const u = await resetPassword(await state(), opts.email, password);
      console.log(`password of ${u.email} reset; open sessions closed`);
      if (generated) console.log(`password (shown once): ${password}`);
    });
  user
    .command('disable')
    .requiredOption('--email <email>')
    .description('refuses sign-in and closes open sessions (reset enables again)')
    .action(async (opts: { email: string }) => {
      const u = await disableUser(await state(), opts.email);
      console.log(`user ${u.email} disabled`);
    });
  user
    .command('list')
    .option('--account <name>')
    .action(async (opts: { account?: string }) => {
      console.table((await listUsers(await state(), opts.account)).map((u) => ({ email: u.email, account: u.account, created: u.created, last_login: u.last_login ?? '', disabled: u.disabled ?? '' })));
    });
}
