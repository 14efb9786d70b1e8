import type { Agent as AgentType } from 'undici';
import requestApi from 'undici/lib/api/index.js';
// undici's index loads every part of it (fetch, WebSocket, caches, mocks, ...): about 0.1 s of CPU
// at each start of the CLI (`npm run bench:startup`), where the client needs its Agent and the
// request API alone. undici has no `exports` map, so its own modules are reachable; undici-modules.d.ts
// types them, and the client's tests (a real sandbox over HTTP) fail if a new undici moves them.
import AgentModule from 'undici/lib/dispatcher/agent.js';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';

// What undici's index does before it exports anything (`Object.assign(Dispatcher.prototype, api)`):
// a dispatcher's request(), stream() and friends are installed on the prototype. Assigning the same
// functions again when the whole of undici is loaded too (the fleet's packages) changes nothing.
Object.assign(DispatcherModule.prototype, requestApi);

/** undici's Agent, with its request API, without the rest of undici. */
export const Agent: typeof AgentType = AgentModule;
