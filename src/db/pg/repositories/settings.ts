import { eq } from 'drizzle-orm';
import type { PgExecutor } from '../client.ts';
import { settings } from '../schema/settings.ts';

/** Reads one installation fact. */
export async function getSetting(ex: PgExecutor, key: string): Promise<string | null> {
  const [row] = await ex.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value ?? null;
}

/**
 * Writes one installation fact only if it is not set yet; returns the value now stored. First writer
 * wins (a): the INSERT … ON CONFLICT DO NOTHING of a loser waits for the winner's row to commit and
 * writes nothing; the loser then reads the winner's value in a new statement (read committed), so
 * every caller gets the same value.
 */
export async function setSettingOnce(ex: PgExecutor, key: string, value: string): Promise<string> {
  const [inserted] = await ex
    .insert(settings)
    .values({ key, value })
    .onConflictDoNothing({ target: settings.key })
    .returning({ value: settings.value });
  if (inserted) return inserted.value;
  return (await getSetting(ex, key)) ?? value;
}

/** Writes one installation fact, replacing what was there. One upsert (a): the last writer's value stays. */
export async function setSetting(ex: PgExecutor, key: string, value: string): Promise<void> {
  await ex
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
}
