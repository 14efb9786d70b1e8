/**
 * The camt messages the reader knows: the namespace of the `Document` element names the message
 * (camt.052, .053 or .054) and its version; the message element and the element of each
 * statement follow from it.
 */
export interface CamtMessage {
  /** e.g. "camt.053.001.02". */
  readonly name: string;
  /** The child of `Document`, e.g. BkToCstmrStmt. */
  readonly message: string;
  /** The element of one statement, report or notification: its account and its entries. */
  readonly record: string;
}

const MESSAGES: Record<string, { message: string; record: string }> = {
  '052': { message: 'BkToCstmrAcctRpt', record: 'Rpt' },
  '053': { message: 'BkToCstmrStmt', record: 'Stmt' },
  '054': { message: 'BkToCstmrDbtCdtNtfctn', record: 'Ntfctn' },
};

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:camt\.(05[234])\.001\.(0[2-8])$/;

/** What the reader supports, for the message naming an unsupported file. */
export const SUPPORTED_CAMT =
  'camt.052 (BkToCstmrAcctRpt), camt.053 (BkToCstmrStmt) or camt.054 (BkToCstmrDbtCdtNtfctn), versions .001.02 to .001.08, namespace urn:iso:std:iso:20022:tech:xsd:camt.05x.001.0N';

/** The message a `Document` namespace names, or undefined for one the reader does not support. */
export function camtMessage(namespace: string): CamtMessage | undefined {
  const match = NAMESPACE.exec(namespace);
  const kind = match ? MESSAGES[match[1] ?? ''] : undefined;
  if (!match || !kind) return undefined;
  return { name: `camt.${match[1]}.001.${match[2]}`, ...kind };
}
