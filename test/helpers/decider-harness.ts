// given(events).when(command).then(events | error): the decider's spec language. A harness keeps
// an in-memory allocation table fed by the same allocatedValues() the projection uses.
import { parseClusterIPRange } from '../../src/domain/allocation/cluster-ip-range';
import { parseNodePortRange } from '../../src/domain/allocation/node-port-range';
import { allocatedValues } from '../../src/domain/allocation/service-allocation';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import { decide, type Decision, type DecisionContext } from '../../src/domain/service.decider';
import type { ServiceCommand } from '../../src/domain/service.commands';
import type { ServiceEvent } from '../../src/domain/service.events';
import { evolveAll, initialServiceState, type ServiceState } from '../../src/domain/service.evolve';
import type { Service } from '../../src/domain/service.types';

export const T0 = new Date('2026-01-02T03:04:05.678Z');

/** Deterministic pseudo-random numbers (mulberry32). */
export function seededRandom(seed = 42): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class DeciderHarness {
  readonly ips = new Set<string>();
  readonly ports = new Set<number>();
  private uidCounter = 0;
  private readonly random = seededRandom();
  readonly clusterIPRange = parseClusterIPRange('10.96.0.0/12');
  readonly nodePortRange = parseNodePortRange('30000-32767');

  context(now = T0): DecisionContext {
    return {
      now,
      newUid: () => `00000000-0000-4000-8000-${String(++this.uidCounter).padStart(12, '0')}`,
      allocation: {
        clusterIPRange: this.clusterIPRange,
        nodePortRange: this.nodePortRange,
        isClusterIPAllocated: (ip) => this.ips.has(ip),
        isNodePortAllocated: (port) => this.ports.has(port),
        random: this.random,
      },
    };
  }

  /** Applies a decision as the store would: fold, then update the allocation table. */
  commit(state: ServiceState, decision: Decision, resourceVersion: number): ServiceState {
    const after = evolveAll(state, decision.events, resourceVersion);
    const release = state.object ? allocatedValues(state.object) : { clusterIPs: [], nodePorts: [] };
    release.clusterIPs.forEach((ip) => this.ips.delete(ip));
    release.nodePorts.forEach((p) => this.ports.delete(p));
    if (after.object) {
      const held = allocatedValues(after.object);
      held.clusterIPs.forEach((ip) => this.ips.add(ip));
      held.nodePorts.forEach((p) => this.ports.add(p));
    }
    return after;
  }
}

/** A decoded-and-defaulted Service body, as the API layer hands it to a command. */
export function aService(name: string, spec: Service['spec'] = {}, metadata: Service['metadata'] = {}): Service {
  return applyServiceDefaults({
    metadata: { name, ...metadata },
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
    status: { loadBalancer: {} },
  });
}

export function given(...writes: ServiceCommand[]) {
  const harness = new DeciderHarness();
  let state = initialServiceState;
  let rv = 0;
  for (const command of writes) {
    const decision = decide(command, state, harness.context());
    state = harness.commit(state, decision, ++rv);
  }
  return {
    state,
    harness,
    when(command: ServiceCommand) {
      const run = () => decide(command, state, harness.context());
      return {
        then(expected: (events: ServiceEvent[], decision: Decision) => void) {
          const decision = run();
          expected(decision.events, decision);
        },
        thenThrows(type: new (...args: never[]) => Error, message?: string | RegExp) {
          expect(run).toThrow(type);
          if (message) expect(run).toThrow(message);
        },
      };
    },
  };
}
