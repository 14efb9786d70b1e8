// Preloaded into a CLI child (`--import`): names on stderr each bare module specifier it resolves
// whose name ERP_BRIDGE_WATCH_MODULES (a regular expression) matches, so a test can tell which
// packages a command loaded.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
const watched = new RegExp(${JSON.stringify(process.env.ERP_BRIDGE_WATCH_MODULES ?? '^$')});
export async function resolve(specifier, context, next) {
  if (watched.test(specifier)) process.stderr.write('module loaded: ' + specifier + '\\n');
  return next(specifier, context);
}`)}`,
);
