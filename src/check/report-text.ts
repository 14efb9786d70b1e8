import { placeOf } from '../sync/outcome.js';
import type { FeedCheck } from './check-feed.js';
import type { Example } from './field-stats.js';

const example = (e: Example) => `      ${placeOf(e)}: ${e.reason}\n`;

/** A file as read: its records, and how it was decoded or which sheet. */
function fileLine(file: FeedCheck['files'][number]): string {
  const how = [
    ...(file.encoding
      ? [`${file.encoding.name}${file.encoding.chosenBy === 'auto' ? ', detected' : ''}`]
      : []),
    ...(file.sheet !== undefined ? [`sheet "${file.sheet}"`] : []),
  ];
  return `  read: ${file.file}: ${file.records} rows${how.length > 0 ? ` (${how.join(', ')})` : ''}\n`;
}

function identityLines(check: FeedCheck): string {
  const id = check.identities;
  const derivedFrom = Object.entries(id.derivedFrom.fields)
    .map(([field, source]) => `${field} (${source})`)
    .join(', ');
  const from = id.source
    ? `source ID ${id.source}; ${id.derived} of ${id.records} derived where it is empty`
    : `derived (scheme ${id.derivedFrom.scheme}) for all ${id.records}, from ${derivedFrom || 'the record'}`;
  const shown = id.sent
    ? ''
    : ' (the API keeps no externalId of this kind: the ID names records in reports only)';
  const derived =
    id.source && id.derived > 0 ? `\n    derived IDs are built from ${derivedFrom || 'the record'}` : '';
  return `  identities: ${from}${shown}${derived}\n    repeated within the run: ${id.repeatsSkipped} skipped (same content), ${id.repeatsRejected} rejected (other content)\n`;
}

function totalLines(check: FeedCheck): string {
  const { wouldSend, reported, dates } = check.totals;
  const amounts = Object.entries(wouldSend.amounts)
    .map(([currency, sum]) => `${currency} ${sum}`)
    .join(', ');
  const others = (['rejected', 'skipped', 'failed'] as const)
    .filter((o) => reported[o].records > 0)
    .map((o) => `${reported[o].records} ${o} (amount ${reported[o].amount})`);
  const range = Object.entries(dates).map(([field, r]) => `${field} ${r.from} .. ${r.to}`);
  return (
    `  control totals: ${wouldSend.records} would be sent${amounts ? `, ${amounts}` : ''}${others.length > 0 ? `; ${others.join(', ')}` : ''}\n` +
    (range.length > 0 ? `  dates: ${range.join('; ')}\n` : '')
  );
}

/** The screen of one feed's check: what was read, per field, identities, totals, first records. */
export function checkText(check: FeedCheck): string {
  let text = `${check.feed} (${check.source}): ${check.kind} from ${check.format}\n`;
  for (const file of check.files) text += fileLine(file);
  for (const w of check.waiting) text += `  waiting: ${w.path} (${w.reason})\n`;
  for (const l of check.leftOut) text += `  left out: ${l.path} (${l.problem})\n`;
  if (check.noFile) text += `  ${check.noFile}\n`;
  for (const stop of check.stops)
    text += `  cannot be read (exit ${stop.exitCode}, ${stop.code}): ${stop.message}\n`;
  if (check.files.length > 0) {
    const width = Math.max(...check.fields.map((f) => f.field.length));
    text += '  fields (values, empty, rejected):\n';
    for (const f of check.fields) {
      text += `    ${f.field.padEnd(width)}  ${f.values} values, ${f.empty} empty, ${f.rejected} rejected\n`;
      for (const e of f.examples) text += example(e);
    }
    if (check.other.length > 0) text += '  rows not told by one field:\n';
    for (const o of check.other) {
      text += `    ${o.outcome} ${o.code}: ${o.count}\n`;
      for (const e of o.examples) text += example(e);
    }
    text += identityLines(check);
    text += totalLines(check);
  }
  if (check.samples.length > 0) {
    text += `  the first ${check.samples.length} records as the service would receive them:\n`;
    for (const s of check.samples) text += `    ${placeOf(s)} ${JSON.stringify(s.payload)}\n`;
  }
  return text;
}
