/**
 * The namespace of every gate key and channel: `keyPrefix` as a Redis Cluster hash tag (a prefix
 * that already holds one, such as `{erp-bridge}`, is used as it is), then `:gate`. Shared by the
 * gate and by readers of its keys (metrics), so both agree on the layout.
 */
export function gateNamespace(keyPrefix = 'erp-bridge'): string {
  const tagged = /\{[^{}]+\}/.test(keyPrefix) ? keyPrefix : `{${keyPrefix}}`;
  return `${tagged}:gate`;
}
