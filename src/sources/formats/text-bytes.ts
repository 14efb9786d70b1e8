/**
 * Whether `text` is longer than `max` UTF-8 bytes. A character is one to three bytes (a surrogate
 * pair, two characters, is four): the bytes are counted only when the length leaves a doubt.
 */
export function longerThanBytes(text: string, max: number): boolean {
  if (text.length * 3 <= max) return false;
  return text.length > max || Buffer.byteLength(text, 'utf8') > max;
}
