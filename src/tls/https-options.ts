// Node/Fastify `https` options for the data dir's material. The client certificate is requested
// but not required, so bearer-token clients connect to the same listener; the authenticator
// then reads socket.authorized and the peer certificate per request (client-protocol.md §2.3).
export interface HttpsServerOptions {
  key: string;
  cert: string;
  ca: string;
  requestCert: true;
  rejectUnauthorized: false;
}

export function httpsServerOptions(material: { servingCertPem: string; servingKeyPem: string; caCertPem: string }): HttpsServerOptions {
  return {
    key: material.servingKeyPem,
    cert: material.servingCertPem,
    ca: material.caCertPem,
    requestCert: true,
    rejectUnauthorized: false,
  };
}
