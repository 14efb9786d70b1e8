import { type HttpMethod, OPERATIONS, type OperationName } from '../contract/index.js';

interface Route {
  name: OperationName;
  method: HttpMethod;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
}

export type RouteMatch =
  | { kind: 'operation'; name: OperationName; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

function compile(name: OperationName, method: HttpMethod, path: string): Route {
  const paramNames: string[] = [];
  let literalSegments = 0;
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param?.[1]) {
        paramNames.push(param[1]);
        return '([^/]+)';
      }
      if (segment) literalSegments++;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { name, method, pattern: new RegExp(`^${source}/?$`), paramNames, literalSegments };
}

/** Matches paths (relative to /v2) against the contract's operation table; literal segments win over parameters. */
export function createRouter(): (method: string, path: string) => RouteMatch {
  const routes = (Object.entries(OPERATIONS) as [OperationName, { method: HttpMethod; path: string }][])
    .map(([name, op]) => compile(name, op.method, op.path))
    .sort((a, b) => b.literalSegments - a.literalSegments || a.paramNames.length - b.paramNames.length);

  return (method, path) => {
    const allowed: HttpMethod[] = [];
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.paramNames.forEach((param, i) => {
        params[param] = decodeURIComponent(match[i + 1] ?? '');
      });
      return { kind: 'operation', name: route.name, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  };
}
