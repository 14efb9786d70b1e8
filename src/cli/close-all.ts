/**
 * Closes what a command opened, last first; a failing close does not keep the others open. Used
 * also when a start fails half-way (an admin port in use): an open connection would keep the
 * process from exiting.
 */
export async function closeAll(opened: (() => Promise<unknown>)[]): Promise<void> {
  for (const close of opened.splice(0).reverse()) await close().catch(() => undefined);
}
