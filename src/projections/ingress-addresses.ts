// The addresses (IPs and hostnames) a load-balancer ingress list holds, and what a change of the
// list clears and sets: the rule every ingress history fold (live, bulk, PostgreSQL) follows.
import type { ServiceEvent } from '../domain/service.events';
import type { LoadBalancerIngress } from '../domain/service.types';

export interface Address {
  address: string;
  addressType: 'ip' | 'hostname';
}

export function ingressAddresses(ingress: readonly LoadBalancerIngress[]): Address[] {
  const out = new Map<string, Address>();
  for (const entry of ingress) {
    if (entry.ip) out.set(`ip:${entry.ip}`, { address: entry.ip, addressType: 'ip' });
    if (entry.hostname) out.set(`hostname:${entry.hostname}`, { address: entry.hostname, addressType: 'hostname' });
  }
  return [...out.values()];
}

/** The addresses an ingress change clears and those it sets (an address kept is neither). */
export function ingressChanges(previous: readonly LoadBalancerIngress[], next: readonly LoadBalancerIngress[]): { cleared: Address[]; set: Address[] } {
  const key = (a: Address) => `${a.addressType}:${a.address}`;
  const before = ingressAddresses(previous);
  const after = ingressAddresses(next);
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  return { cleared: before.filter((a) => !afterKeys.has(key(a))), set: after.filter((a) => !beforeKeys.has(key(a))) };
}

/**
 * What an event of a Service's stream does to its addresses: an ingress change clears and sets; a
 * creation that already carries ingress (a mirror's first sight of a Service that holds an
 * address: direct creates have no status) sets what it carries. Undefined for any other event.
 */
export function eventIngressChanges(event: ServiceEvent): { cleared: Address[]; set: Address[] } | undefined {
  if (event.type === 'LoadBalancerIngressChanged') return ingressChanges(event.data.previous, event.data.ingress);
  if (event.type === 'ServiceCreated') {
    const set = ingressAddresses(event.data.object.status?.loadBalancer?.ingress ?? []);
    return set.length ? { cleared: [], set } : undefined;
  }
  return undefined;
}
