import { bootstrap } from '../bootstrap.ts';
import {
  createAdminUser,
  describeAdminUsers,
  removeAdminUser,
  resetAdminTotp,
  setAdminPassword,
} from '../services/admin-accounts.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;

const USAGE =
  'admin create-user --email E [--role admin|viewer] --password-stdin | users | set-password --email E --password-stdin | reset-totp --email E | remove-user --email E';

/** Reads the whole of standard input as the password; one trailing line break (typed or piped) is not part of it. */
async function passwordFromStdin(flags: Flags): Promise<string> {
  if (!flags['password-stdin'])
    throw new UsageError('Give the password on standard input with --password-stdin (never as an argument).');
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter and Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function email(flags: Flags): string {
  if (typeof flags.email !== 'string' || !flags.email) throw new UsageError(USAGE);
  return flags.email;
}

/**
 * `kassa admin …`: the dashboard's users. `create-user` (role admin by default), `users`,
 * `set-password` (also unlocks and signs the user out everywhere), `reset-totp` (when a phone is
 * lost) and `remove-user`. Passwords come only from standard input, never from arguments (which
 * other users of the machine can see in the process list).
 */
export async function adminCommand(args: string[], flags: Flags): Promise<void> {
  const [sub] = args;
  if (!sub || !['create-user', 'users', 'set-password', 'reset-totp', 'remove-user'].includes(sub))
    throw new UsageError(USAGE);
  const password = sub === 'create-user' || sub === 'set-password' ? await passwordFromStdin(flags) : null;
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    switch (sub) {
      case 'create-user': {
        const user = await createAdminUser(rt, {
          email: email(flags),
          role: typeof flags.role === 'string' ? flags.role : 'admin',
          password: password as string,
        });
        if (flags.json) printJson(user);
        else process.stdout.write(`created ${user.role} ${user.email} (${user.userId})\n`);
        return;
      }
      case 'users': {
        const users = await describeAdminUsers(rt);
        if (flags.json) printJson(users);
        else
          printTable(
            users.map(({ email, role, totp, lockedUntil, createdAt }) => ({
              email,
              role,
              totp,
              lockedUntil,
              createdAt,
            })),
          );
        return;
      }
      case 'set-password':
        await setAdminPassword(rt, { email: email(flags), password: password as string });
        process.stdout.write(`password set for ${email(flags).trim().toLowerCase()}; their sessions ended\n`);
        return;
      case 'reset-totp':
        await resetAdminTotp(rt, email(flags));
        process.stdout.write(`two-factor sign-in off for ${email(flags).trim().toLowerCase()}\n`);
        return;
      case 'remove-user':
        await removeAdminUser(rt, email(flags));
        process.stdout.write(`removed ${email(flags).trim().toLowerCase()}\n`);
        return;
    }
  } finally {
    await rt.close();
  }
}
