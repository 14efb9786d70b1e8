// What the CLI bundle resolves `zod` to (package.json "bundle": `--alias:zod=./.build/zod.js`): the
// values erp-bridge's sources use, named one by one. Zod's `z` is a namespace that also holds every
// locale (~370 kB of the ~790 kB zod chunk); esbuild keeps a whole namespace object when chunks
// share it, so every command that loaded zod parsed them all. Named here, esbuild keeps only these
// and what they reach (zod's English messages stay: its entry module configures them). A value
// the sources use and this list misses fails the bundle (`import-is-undefined` is an error there).
export {
  array,
  boolean,
  coerce,
  compile,
  discriminatedUnion,
  email,
  enum,
  gte,
  int,
  iso,
  lazy,
  literal,
  looseObject,
  lte,
  maxLength,
  NEVER,
  null,
  number,
  object,
  preprocess,
  record,
  safeParse,
  strictObject,
  string,
  union,
  unknown,
  url,
} from '../node_modules/zod/v4/classic/external.js';
