import { definePlugin, kernelServices } from '@forgekit/kernel';
import { appearanceRoutes } from './appearance/appearance-routes.js';
import { createAppearanceService } from './appearance/appearance-service.js';
import { createAppearanceStore } from './appearance/appearance-store.js';
import { AppearanceEntity } from './entities/appearance.js';
import { init } from './migrations/202611271130-init.js';

/** The instance appearance (`/application/appearance`): titles, messages and logos, for administrators. */
export const appearancePlugin = definePlugin({
  id: 'appearance',
  compatibility: '^0.1.0',
  entities: [AppearanceEntity],
  migrations: [init],
  register(ctx) {
    const service = createAppearanceService(createAppearanceStore(ctx.resolve(kernelServices.database)), ctx.resolve(kernelServices.files));
    ctx.routes(...appearanceRoutes(service));
  },
});
