// Types of the undici modules undici-agent.ts imports one by one (it says why).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentModule: typeof Agent;
  export default AgentModule;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';

  const DispatcherModule: typeof Dispatcher;
  export default DispatcherModule;
}

declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';

  const requestApi: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade'>;
  export default requestApi;
}
