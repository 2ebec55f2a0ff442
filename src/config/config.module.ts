// Provides the validated AppConfig, the clock and the id factory to the whole app.
import { DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, Clock } from '../shared/clock';
import { ID_FACTORY, IdFactory } from '../shared/ids';
import { AppConfig, APP_CONFIG } from './app-config';
import { ClusterNetwork } from './cluster-network';

@Global()
@Module({})
export class ConfigModule {
  static register(config: AppConfig, clock: Clock, ids: IdFactory): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, { provide: CLOCK, useValue: clock }, { provide: ID_FACTORY, useValue: ids }, ClusterNetwork],
      exports: [APP_CONFIG, CLOCK, ID_FACTORY, ClusterNetwork],
    };
  }
}
