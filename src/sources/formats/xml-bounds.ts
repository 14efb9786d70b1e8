import type { SaxesOptions, SaxesParser } from 'saxes';

/**
 * Caps of an XML reader (docs/reading-exports.md, "Caps"). saxes holds each token it reads — a
 * text node, a comment, CDATA, an attribute value, a name — in one string until the token ends,
 * and every open element on its stack: a 100 MB text node or a million nested elements would be
 * held whole. It has no limits of its own, so the reader writes to it in slices and looks at what
 * it holds after each one.
 */
export interface XmlCaps {
  /** Characters of one token (text node, attribute value, comment, name). */
  readonly maxToken: number;
  /** Open elements. */
  readonly maxDepth: number;
}

/** Elements nested deeper than this are no camt or xlsx a program writes (theirs stay below 20). */
export const MAX_XML_DEPTH = 64;
/** Attributes of one element: OOXML and camt elements have a handful. */
const MAX_ATTRIBUTES = 1024;
/** What the parser may add between two checks: one slice of text. */
const SLICE = 64 * 1024;

/** A cap of an XML reader was passed: the message says which, for "… at line N: <message>". */
export class XmlCapError extends Error {
  override readonly name = 'XmlCapError';
}

/** The buffers saxes (6.x) keeps for the token in progress and its open elements. */
interface SaxesState {
  readonly text: string;
  readonly name: string;
  readonly entity: string;
  readonly piTarget: string;
  readonly attribList: readonly unknown[];
  readonly tags: readonly unknown[];
}

/** Writes `chunk` to the parser a slice at a time; throws XmlCapError once a cap is passed. */
export function writeBounded<O extends SaxesOptions>(
  parser: SaxesParser<O>,
  chunk: string,
  caps: XmlCaps,
): void {
  for (let at = 0; at < chunk.length; at += SLICE) {
    parser.write(chunk.length <= SLICE ? chunk : chunk.slice(at, at + SLICE));
    checkBounds(parser as unknown as SaxesState, caps);
  }
}

function checkBounds(state: SaxesState, caps: XmlCaps): void {
  const token = state.text.length + state.name.length + state.entity.length + state.piTarget.length;
  if (token > caps.maxToken)
    throw new XmlCapError(`a text or markup token longer than ${caps.maxToken} characters`);
  if (state.attribList.length > MAX_ATTRIBUTES)
    throw new XmlCapError(`an element with more than ${MAX_ATTRIBUTES} attributes`);
  if (state.tags.length > caps.maxDepth)
    throw new XmlCapError(`elements nested more than ${caps.maxDepth} deep`);
}
