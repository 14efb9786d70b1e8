/**
 * The mapped fields a rejection's message blames, with the part of the message about each. The
 * mapper (sources/mapper.ts) joins a row's problems with "; " and begins each with the field it
 * read: `amount (column "Betrag"): …` (field-plan.ts), `amount: both … are empty`, or a contract
 * issue's path, `currency: …`. A part that names no mapped field (an unreadable row, a record-wide
 * contract issue, a duplicate) is the row's, under `undefined`.
 */
export function blamedFields(
  message: string,
  fields: readonly string[],
): { field: string | undefined; reason: string }[] {
  const blamed: { field: string | undefined; reason: string }[] = [];
  for (const part of message.split('; ')) {
    const field = fields.find((f) => part.startsWith(`${f} (`) || part.startsWith(`${f}:`));
    // A part that names no field continues the one before it (a message of its own with "; " in it).
    const last = blamed.at(-1);
    if (field === undefined && last) last.reason += `; ${part}`;
    else blamed.push({ field, reason: part });
  }
  return blamed;
}
