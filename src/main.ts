// `npm start`: parse flags, serve, print one line saying how to use it.
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { DataDirectoryLockedError } from './store/data-directory-lock';
import { DamagedDatabaseError } from './store/database';
import { ClusterConfigError } from './cluster/cluster-config-error';
import { MirrorSourceMismatchError } from './store/ports/mirror-source-store';
import { createServer } from './server/create-server';
import { AuthenticationConfigMapError } from './auth/authentication-config-map-watch';
import { RequestHeaderCaFileError } from './auth/request-header-settings';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const server = await createServer(config);
  for (const warning of server.warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stdout.write(`svctrail serving ${server.url} — try: KUBECONFIG=${server.kubeconfigPath} kubectl get svc\n`);
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof DamagedDatabaseError ||
    error instanceof DataDirectoryLockedError ||
    error instanceof ClusterConfigError ||
    error instanceof MirrorSourceMismatchError ||
    error instanceof RequestHeaderCaFileError ||
    error instanceof AuthenticationConfigMapError ||
    (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
  process.stderr.write(`svctrail: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
