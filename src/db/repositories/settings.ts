import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { settings } from '../schema/settings.ts';

/** Reads one installation fact. */
export function getSetting(db: Db, key: string): string | null {
  return db.select().from(settings).where(eq(settings.key, key)).get()?.value ?? null;
}

/** Writes one installation fact only if it is not set yet; returns the value now stored. */
export function setSettingOnce(db: Db, key: string, value: string): string {
  db.insert(settings).values({ key, value }).onConflictDoNothing().run();
  return getSetting(db, key) ?? value;
}

/** Writes one installation fact, replacing what was there. */
export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  db.insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
    .run();
}
