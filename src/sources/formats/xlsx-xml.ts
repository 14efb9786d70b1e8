import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_XML_DEPTH, writeBounded } from './xml-bounds.js';

/** The element name without its namespace prefix (some writers prefix every element: `x:row`). */
export const localName = (tag: { name: string }): string => tag.name.slice(tag.name.indexOf(':') + 1);

/** An attribute's value, whatever its prefix. */
export function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  const value = tag.attributes[name];
  return typeof value === 'string' ? value : undefined;
}

/** OOXML writes characters XML cannot carry as `_xHHHH_` (ST_Xstring); `_x005F_` escapes `_`. */
export function unescapeXstring(text: string): string {
  return text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : text;
}

export interface XmlHandlers {
  open?(tag: SaxesTagPlain): void;
  close?(tag: SaxesTagPlain): void;
  text?(text: string): void;
}

/** A namespace-unaware streaming parser. Without an error handler saxes throws from `write`. */
export function xmlParser(handlers: XmlHandlers): SaxesParser {
  const parser = new SaxesParser();
  const { open, close, text } = handlers;
  if (open) parser.on('opentag', open);
  if (close) parser.on('closetag', close);
  if (text) {
    parser.on('text', text);
    parser.on('cdata', text);
  }
  return parser;
}

/**
 * Parses a whole index part, whose inflated size the zip has capped at `maxBytes` (so no token is
 * longer); its nesting is capped as a sheet's is (XmlCapError).
 */
export async function parsePart(
  text: NodeJS.ReadableStream,
  maxBytes: number,
  handlers: XmlHandlers,
): Promise<void> {
  const parser = xmlParser(handlers);
  const caps = { maxToken: maxBytes, maxDepth: MAX_XML_DEPTH };
  for await (const chunk of text) writeBounded(parser, String(chunk), caps);
  parser.close();
}
