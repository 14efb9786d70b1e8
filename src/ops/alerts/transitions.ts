/**
 * How a feed's state changed between two runs, from the kinds of problem each left it with
 * (empty: healthy). Only a change is worth a notice; the same problems again are not, so a feed
 * that stays broken does not flood the channel.
 */
export type Transition =
  /** healthy -> failing: raise an alert. */
  | 'raised'
  /** failing -> failing with other kinds: alert again, with the kinds it has now. */
  | 'changed'
  /** failing -> healthy: a resolved notice. */
  | 'resolved'
  /** failing -> failing with the same kinds: nothing new. */
  | 'unchanged'
  /** healthy -> healthy. */
  | 'healthy';

export function transitionOf(previous: readonly string[], next: readonly string[]): Transition {
  if (previous.length === 0) return next.length === 0 ? 'healthy' : 'raised';
  if (next.length === 0) return 'resolved';
  return sameKinds(previous, next) ? 'unchanged' : 'changed';
}

/** The kinds as one canonical text (sorted, each once): what the stores keep and compare. */
export const kindsKey = (kinds: readonly string[]): string => [...new Set(kinds)].sort().join(',');

const sameKinds = (a: readonly string[], b: readonly string[]) => kindsKey(a) === kindsKey(b);
