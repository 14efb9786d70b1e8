import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One invoice as a JSON line of the adversarial feeds. */
export function invoiceLine(id: string, n: number, total = `${n}.50`): string {
  return JSON.stringify({
    id,
    type: 'invoice',
    number: `RE-${n}`,
    customer: 'Nordlicht AG',
    total,
    date: '2026-03-01',
  });
}

/** An invoices feed reading `glob` from a fresh folder holding `files`. */
export function invoicesFeed(files: Record<string, string[]>, glob: string, concurrency = 1): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-dup-'));
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  const feed = [
    'name: adv-dup-inv',
    `accountId: 1001`,
    'kind: invoices',
    'source:',
    `  path: "${glob}"`,
    '  format: jsonl',
    'mapping:',
    '  externalId: id',
    '  invoiceType: { column: type, map: { invoice: SALES_INVOICE } }',
    '  invoiceNumber: number',
    '  contactName: customer',
    '  totalGrossAmount: total',
    '  invoiceDate: date',
    `concurrency: ${concurrency}`,
  ];
  writeFileSync(join(dir, 'feed.yaml'), `${feed.join('\n')}\n`);
  return join(dir, 'feed.yaml');
}
