/**
 * Windows are epoch-aligned. A test that must see all its requests in one window waits first if
 * the current window ends within `neededMs`.
 */
export async function waitForWindowRoom(durationMs: number, neededMs = 5_000): Promise<void> {
  const left = durationMs - (Date.now() % durationMs);
  if (left < neededMs) await new Promise((r) => setTimeout(r, left + 50));
}
