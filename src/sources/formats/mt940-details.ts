/**
 * The information to the account owner of an entry (`:86:`), read. German banks write it
 * structured: a three-digit business transaction code (GVC) and `?nn` subfields — `?00` posting
 * text, `?10` prima nota, `?20`-`?29` and `?60`-`?63` the purpose, `?30` the counterparty's bank
 * (BIC or bank code), `?31` its account (IBAN or account number), `?32`/`?33` its name, `?34` a
 * text key extension — and inside the purpose SEPA tags (`EREF+`, `SVWZ+`, …). Other banks write
 * free text.
 */
export interface EntryDetails {
  gvc?: string;
  postingText?: string;
  primaNota?: string;
  /** SVWZ+ when tagged, else the purpose text (structured) or the whole text (free). */
  purpose?: string;
  /** The purpose subfields joined, SEPA tags and all. */
  purposeText?: string;
  counterpartyName?: string;
  counterpartyIban?: string;
  counterpartyBic?: string;
  /** ?31 when it is no IBAN (a domestic account number). */
  counterpartyAccount?: string;
  /** ?30 when it is no BIC (a domestic bank code). */
  counterpartyBankCode?: string;
  textKeyExtension?: string;
  /** SEPA tag → its value, e.g. EREF → "A1.200080779". */
  sepa: Map<string, string>;
}

const SEPA_TAGS = [
  'EREF',
  'KREF',
  'MREF',
  'CRED',
  'DEBT',
  'SVWZ',
  'ABWA',
  'ABWE',
  'OAMT',
  'COAM',
  'PURP',
  'IBAN',
  'BIC',
];
const SEPA_TAG = new RegExp(`(${SEPA_TAGS.join('|')})\\+`, 'g');
const PURPOSE_SUBFIELD = /^(2\d|6[0-3])$/;
/** `?nn` and its value, up to the next `?nn`: a question mark in the text itself stays text. */
const SUBFIELD = /\?(\d{2})((?:[^?]|\?(?!\d{2}))*)/g;
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
const BIC = /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/**
 * Runs of white space (a TAB inside, the spaces where a bank padded a subfield) become one space.
 * A soft hyphen (U+00AD) is a hyphen that went through Latin-1 on its way (ING separates the
 * parts of its dates with them): it becomes the hyphen it was meant to be, not an invisible one.
 */
const tidy = (text: string): string =>
  text
    .replace(/\u00ad/g, '-')
    .replace(/\s+/g, ' ')
    .trim();

const present = (text: string | undefined): string | undefined => {
  if (text === undefined) return undefined;
  const tidied = tidy(text);
  return tidied === '' ? undefined : tidied;
};

/**
 * Reads a `:86:` field: its lines as written after the tag. Structured text is one string the
 * bank cut into lines of at most 65 characters and subfields of at most 27, mid-word wherever
 * the limit fell: lines and purpose subfields are joined as written, without a separator.
 * Free text is a few lines of their own: joined with a space.
 */
export function readDetails(lines: readonly string[]): EntryDetails {
  const joined = lines.join('');
  const structured = /^\s*(\d{3})\?/.exec(joined);
  if (!structured) {
    const purpose = present(lines.join(' '));
    return { ...(purpose === undefined ? {} : { purpose, purposeText: purpose }), sepa: new Map() };
  }
  const details: EntryDetails = { gvc: structured[1] as string, sepa: new Map() };
  const subfields = new Map<string, string>();
  const purposeParts: string[] = [];
  for (const [, code = '', value = ''] of joined.slice(structured[0].length - 1).matchAll(SUBFIELD)) {
    if (PURPOSE_SUBFIELD.test(code)) purposeParts.push(value);
    else subfields.set(code, (subfields.get(code) ?? '') + value);
  }
  assign(details, 'postingText', present(subfields.get('00')));
  assign(details, 'primaNota', present(subfields.get('10')));
  assign(details, 'textKeyExtension', present(subfields.get('34')));
  const name = present((subfields.get('32') ?? '') + (subfields.get('33') ?? ''));
  assign(details, 'counterpartyName', name);
  const bank = present(subfields.get('30'))?.replace(/ /g, '');
  if (bank !== undefined) assign(details, BIC.test(bank) ? 'counterpartyBic' : 'counterpartyBankCode', bank);
  const account = present(subfields.get('31') ?? subfields.get('38'))?.replace(/ /g, '');
  if (account !== undefined)
    assign(details, IBAN.test(account) ? 'counterpartyIban' : 'counterpartyAccount', account);
  readPurpose(details, purposeParts);
  return details;
}

type TextKey = Exclude<keyof EntryDetails, 'sepa'>;

function assign(details: EntryDetails, key: TextKey, value: string | undefined): void {
  if (value !== undefined) details[key] = value;
}

/**
 * The purpose subfields joined; its SEPA tags split off. A tag counts at the start of the text, after
 * white space, or at the start of a subfield (`?21…2019-12?22ABWA+…`: the bank puts no space there).
 */
function readPurpose(details: EntryDetails, parts: readonly string[]): void {
  const text = parts.join('');
  assign(details, 'purposeText', present(text));
  const starts = new Set<number>();
  let offset = 0;
  for (const part of parts) {
    starts.add(offset);
    offset += part.length;
  }
  const tags: { tag: string; at: number; end: number }[] = [];
  for (const match of text.matchAll(SEPA_TAG)) {
    const at = match.index;
    if (at === 0 || starts.has(at) || /\s/.test(text.charAt(at - 1)))
      tags.push({ tag: match[1] as string, at, end: at + match[0].length });
  }
  tags.forEach(({ tag, end }, i) => {
    const value = present(text.slice(end, tags[i + 1]?.at ?? text.length));
    if (value !== undefined && !details.sepa.has(tag)) details.sepa.set(tag, value);
  });
  const untagged = present(text.slice(0, tags[0]?.at ?? text.length));
  assign(details, 'purpose', details.sepa.get('SVWZ') ?? untagged ?? details.purposeText);
}
