import type { Service, ServiceSpec, ServiceStatus } from '../../domain/service.types';
import { SERVICE_COLUMN_DEFINITIONS, serviceRow } from './service-table';

const NOW = new Date('2025-01-01T12:00:00Z');

const svc = (spec: ServiceSpec, status: ServiceStatus = { loadBalancer: {} }, creationTimestamp = '2025-01-01T10:00:00Z'): Service => ({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name: 'web', namespace: 'default', creationTimestamp },
  spec,
  status,
});

const tcp = (port: number, nodePort?: number) => ({ port, protocol: 'TCP', ...(nodePort ? { nodePort } : {}) });

describe('SERVICE_COLUMN_DEFINITIONS (printers.go serviceColumnDefinitions)', () => {
  it('names, types, formats and priorities', () => {
    expect(SERVICE_COLUMN_DEFINITIONS.map(({ name, type, format, priority }) => [name, type, format, priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Type', 'string', '', 0],
      ['Cluster-IP', 'string', '', 0],
      ['External-IP', 'string', '', 0],
      ['Port(s)', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Selector', 'string', '', 1],
    ]);
  });

  it('keys in TableColumnDefinition order', () => {
    expect(SERVICE_COLUMN_DEFINITIONS.every((c) => Object.keys(c).join() === 'name,type,format,description,priority')).toBe(true);
  });

  it('SwaggerDoc descriptions keep the Go paragraph break and double spaces', () => {
    const age = SERVICE_COLUMN_DEFINITIONS[5].description;
    expect(age).toContain('is in UTC.\n\nPopulated by the system.');
    expect(SERVICE_COLUMN_DEFINITIONS[3].description).toContain('for this service.  These IPs are not managed by Kubernetes.  The user');
    expect(SERVICE_COLUMN_DEFINITIONS[2].description).toContain('as describe above).  Valid values are "None"');
  });
});

describe('serviceRow (printService, wide)', () => {
  it.each<[string, Service, (string | number)[]]>([
    [
      'ClusterIP',
      svc({ type: 'ClusterIP', clusterIP: '10.96.12.34', clusterIPs: ['10.96.12.34'], ports: [tcp(80)], selector: { app: 'x' } }),
      ['web', 'ClusterIP', '10.96.12.34', '<none>', '80/TCP', '120m', 'app=x'],
    ],
    [
      'dual-stack ClusterIP shows the first clusterIPs entry',
      svc({ type: 'ClusterIP', clusterIP: 'fd00::1', clusterIPs: ['fd00::1', '10.96.0.9'], ports: [tcp(80)], selector: { app: 'x' } }),
      ['web', 'ClusterIP', 'fd00::1', '<none>', '80/TCP', '120m', 'app=x'],
    ],
    ['headless', svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], ports: [tcp(80)], selector: { app: 'db' } }), ['web', 'ClusterIP', 'None', '<none>', '80/TCP', '120m', 'app=db']],
    [
      'ClusterIP with externalIPs (in spec order)',
      svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.5'], externalIPs: ['5.6.7.8', '1.2.3.4'], ports: [tcp(80)] }),
      ['web', 'ClusterIP', '10.96.0.5', '5.6.7.8,1.2.3.4', '80/TCP', '120m', '<none>'],
    ],
    [
      'NodePort, several ports and protocols',
      svc({
        type: 'NodePort',
        clusterIPs: ['10.96.0.7'],
        ports: [tcp(80, 30080), { port: 53, protocol: 'UDP', nodePort: 30053 }, { port: 9000, protocol: 'SCTP' }],
        selector: { app: 'x' },
      }),
      ['web', 'NodePort', '10.96.0.7', '<none>', '80:30080/TCP,53:30053/UDP,9000/SCTP', '120m', 'app=x'],
    ],
    [
      'NodePort with externalIPs',
      svc({ type: 'NodePort', clusterIPs: ['10.96.0.7'], externalIPs: ['9.9.9.9'], ports: [tcp(80, 30080)] }),
      ['web', 'NodePort', '10.96.0.7', '9.9.9.9', '80:30080/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer pending',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], ports: [tcp(443, 31443)], selector: { app: 'x' } }),
      ['web', 'LoadBalancer', '10.96.0.8', '<pending>', '443:31443/TCP', '120m', 'app=x'],
    ],
    [
      'LoadBalancer with an empty ingress entry is still pending',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], ports: [tcp(443, 31443)] }, { loadBalancer: { ingress: [{}] } }),
      ['web', 'LoadBalancer', '10.96.0.8', '<pending>', '443:31443/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer with an ip (not clipped to 16 characters when wide)',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], ports: [tcp(443, 31443)] }, { loadBalancer: { ingress: [{ ip: '203.0.113.10', ipMode: 'VIP' }] } }),
      ['web', 'LoadBalancer', '10.96.0.8', '203.0.113.10', '443:31443/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer with a hostname',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], ports: [tcp(443, 31443)] }, { loadBalancer: { ingress: [{ hostname: 'a1b2c3.elb.us-east-1.amazonaws.com' }] } }),
      ['web', 'LoadBalancer', '10.96.0.8', 'a1b2c3.elb.us-east-1.amazonaws.com', '443:31443/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer: ip wins over hostname; duplicates removed; sorted',
      svc(
        { type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], ports: [tcp(443, 31443)] },
        {
          loadBalancer: {
            ingress: [{ ip: '5.5.5.5', hostname: 'ignored.example.com' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }, { ip: '5.5.5.5' }, { hostname: 'lb.example.com' }],
          },
        },
      ),
      ['web', 'LoadBalancer', '10.96.0.8', '10.0.0.1,5.5.5.5,lb.example.com', '443:31443/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer ingress then externalIPs (appended unsorted, not deduplicated)',
      svc(
        { type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], externalIPs: ['9.9.9.9', '1.1.1.1', '2.2.2.2'], ports: [tcp(443, 31443)] },
        { loadBalancer: { ingress: [{ ip: '2.2.2.2' }, { ip: '1.0.0.1' }] } },
      ),
      ['web', 'LoadBalancer', '10.96.0.8', '1.0.0.1,2.2.2.2,9.9.9.9,1.1.1.1,2.2.2.2', '443:31443/TCP', '120m', '<none>'],
    ],
    [
      'LoadBalancer with only externalIPs is not pending',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.8'], externalIPs: ['9.9.9.9'], ports: [tcp(443, 31443)] }),
      ['web', 'LoadBalancer', '10.96.0.8', '9.9.9.9', '443:31443/TCP', '120m', '<none>'],
    ],
    ['ExternalName', svc({ type: 'ExternalName', externalName: 'db.example.com' }), ['web', 'ExternalName', '<none>', 'db.example.com', '<none>', '120m', '<none>']],
    ['ExternalName with ports', svc({ type: 'ExternalName', externalName: 'db.example.com', ports: [tcp(5432)] }), ['web', 'ExternalName', '<none>', 'db.example.com', '5432/TCP', '120m', '<none>']],
    ['no ports, no selector', svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }), ['web', 'ClusterIP', 'None', '<none>', '<none>', '120m', '<none>']],
    ['empty selector map', svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.5'], ports: [tcp(80)], selector: {} }), ['web', 'ClusterIP', '10.96.0.5', '<none>', '80/TCP', '120m', '<none>']],
    [
      'selector sorted as k=v strings ("a-b=…" before "a=…")',
      svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.5'], ports: [tcp(80)], selector: { tier: 'web', a: 'x', 'a-b': 'y', 'app.kubernetes.io/name': 'shop' } }),
      ['web', 'ClusterIP', '10.96.0.5', '<none>', '80/TCP', '120m', 'a-b=y,a=x,app.kubernetes.io/name=shop,tier=web'],
    ],
    ['an unknown type', svc({ type: 'Weird', clusterIPs: ['10.96.0.5'], ports: [tcp(80)] }), ['web', 'Weird', '10.96.0.5', '<unknown>', '80/TCP', '120m', '<none>']],
    [
      'no creationTimestamp',
      svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.5'], ports: [tcp(80)] }, { loadBalancer: {} }, ''),
      ['web', 'ClusterIP', '10.96.0.5', '<none>', '80/TCP', '<unknown>', '<none>'],
    ],
  ])('%s', (_name, service, cells) => {
    expect(serviceRow(service, NOW)).toEqual(cells);
  });

  it.each<[string, string]>([
    ['2025-01-01T12:00:00Z', '0s'],
    ['2025-01-01T11:58:01Z', '119s'],
    ['2025-01-01T11:58:00Z', '2m'],
    ['2025-01-01T11:55:30Z', '4m30s'],
    ['2025-01-01T11:50:00Z', '10m'],
    ['2025-01-01T09:00:01Z', '179m'],
    ['2025-01-01T09:00:00Z', '3h'],
    ['2025-01-01T06:30:00Z', '5h30m'],
    ['2025-01-01T04:00:00Z', '8h'],
    ['2024-12-30T12:00:01Z', '47h'],
    ['2024-12-30T12:00:00Z', '2d'],
    ['2024-12-28T06:00:00Z', '4d6h'],
    ['2024-12-24T12:00:00Z', '8d'],
    ['2023-01-02T12:00:01Z', '729d'],
    ['2023-01-02T12:00:00Z', '2y'],
    ['2023-01-01T12:00:00Z', '2y1d'],
    ['2017-01-03T12:00:00Z', '8y'],
    ['2025-01-01T12:00:02Z', '<invalid>'],
  ])('Age cell for a Service created %s is %s', (created, age) => {
    expect(serviceRow(svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.5'] }, { loadBalancer: {} }, created), NOW)[5]).toBe(age);
  });
});
