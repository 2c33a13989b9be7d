import { defineEntity } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { BootError, checkPlugins, checkRouteParams, collectEntities, orderPlugins } from './boot-order.js';
import { kernelServices } from './kernel-services.js';
import { definePlugin, type ForgePlugin } from './define-plugin.js';
import { createServiceRef } from './service-ref.js';

const plugin = (id: string, extra: Partial<ForgePlugin> = {}): ForgePlugin => definePlugin({ id, compatibility: '*', register: () => {}, ...extra });

const entity = (name: string, tableName: string) => defineEntity({ name, tableName, properties: (p) => ({ id: p.integer().primary() }) });

const alpha = createServiceRef<string>('alpha.service');
const beta = createServiceRef<string>('beta.service');
const gamma = createServiceRef<string>('gamma.service');

function bootError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof BootError) return error.message;
    throw error;
  }
  throw new Error('expected a BootError');
}

describe('checkPlugins', () => {
  it('accepts distinct, compatible plugins', () => {
    expect(() => checkPlugins([plugin('a', { compatibility: '^0.1.0' }), plugin('b')], '0.1.4')).not.toThrow();
  });

  it('refuses a plugin added twice', () => {
    expect(bootError(() => checkPlugins([plugin('a'), plugin('b'), plugin('a')], '0.1.0'))).toBe("Plugin 'a' is added twice");
  });

  it('refuses another contract version', () => {
    const old = { ...plugin('old'), version: 2 } as unknown as ForgePlugin;
    expect(bootError(() => checkPlugins([old], '0.1.0'))).toBe("Plugin 'old' uses plugin contract v2; this kernel speaks v1");
  });

  it('refuses a kernel outside the compatibility range', () => {
    expect(bootError(() => checkPlugins([plugin('new', { compatibility: '^2.0.0' })], '0.1.0'))).toBe(
      "Plugin 'new' needs @forgekit/kernel ^2.0.0; this is 0.1.0",
    );
  });

  it('accepts prerelease kernels inside the range', () => {
    expect(() => checkPlugins([plugin('a', { compatibility: '>=0.1.0' })], '0.2.0-next.1')).not.toThrow();
  });
});

describe('collectEntities', () => {
  it('collects the entities of every plugin', () => {
    const user = entity('User', 'users');
    const project = entity('Project', 'projects');
    expect(collectEntities([plugin('a', { entities: [user] }), plugin('b', { entities: [project] })])).toEqual([user, project]);
  });

  it('refuses a table two plugins claim', () => {
    const first = plugin('a', { entities: [entity('User', 'users')] });
    const second = plugin('b', { entities: [entity('Account', 'users')] });
    expect(bootError(() => collectEntities([first, second]))).toBe("Plugin 'b' defines table 'users', which plugin 'a' already owns");
  });

  it('refuses an entity name two plugins define', () => {
    const first = plugin('a', { entities: [entity('User', 'users')] });
    const second = plugin('b', { entities: [entity('User', 'people')] });
    expect(bootError(() => collectEntities([first, second]))).toBe("Plugin 'b' defines entity 'User', which plugin 'a' already defines");
  });
});

describe('orderPlugins', () => {
  it('puts providers before their consumers', () => {
    const consumer = plugin('consumer', { requires: [alpha, beta] });
    const alphaProvider = plugin('alpha', { provides: [alpha], requires: [beta] });
    const betaProvider = plugin('beta', { provides: [beta] });
    const standalone = plugin('standalone');
    expect(orderPlugins([consumer, standalone, alphaProvider, betaProvider]).map((p) => p.id)).toEqual(['beta', 'alpha', 'consumer', 'standalone']);
  });

  it('puts a provider of an optional service first when the host has one, and boots without it otherwise', () => {
    const consumer = plugin('consumer', { optional: [alpha] });
    const alphaProvider = plugin('alpha', { provides: [alpha] });
    expect(orderPlugins([consumer, alphaProvider]).map((p) => p.id)).toEqual(['alpha', 'consumer']);
    expect(orderPlugins([consumer]).map((p) => p.id)).toEqual(['consumer']);
  });

  it('refuses a service listed as both required and optional', () => {
    expect(bootError(() => orderPlugins([plugin('both', { requires: [alpha], optional: [alpha] }), plugin('alpha', { provides: [alpha] })]))).toBe(
      "Plugin 'both' lists service 'alpha.service' both in 'requires' and in 'optional'",
    );
  });

  it('keeps the given order when nothing depends on anything', () => {
    expect(orderPlugins([plugin('c'), plugin('a'), plugin('b')]).map((p) => p.id)).toEqual(['c', 'a', 'b']);
  });

  it('needs no provider for kernel services', () => {
    expect(orderPlugins([plugin('a', { requires: [kernelServices.database, kernelServices.jobs] })]).map((p) => p.id)).toEqual(['a']);
  });

  it('names the plugin, the ref and what is provided when a required service is missing', () => {
    const plugins = [plugin('a', { provides: [beta] }), plugin('b', { provides: [alpha] }), plugin('c', { requires: [gamma] })];
    expect(bootError(() => orderPlugins(plugins))).toBe(
      "Plugin 'c' requires service 'gamma.service', which no plugin provides (provided: alpha.service, beta.service)",
    );
  });

  it('needs a provider for the identity service', () => {
    expect(bootError(() => orderPlugins([plugin('a', { requires: [kernelServices.identity] })]))).toBe(
      "Plugin 'a' requires service 'kernel.identity', which no plugin provides (provided: none)",
    );
  });

  it('refuses two providers of one service', () => {
    expect(bootError(() => orderPlugins([plugin('a', { provides: [alpha] }), plugin('b', { provides: [alpha] })]))).toBe(
      "Plugins 'a' and 'b' both provide service 'alpha.service'",
    );
  });

  it('refuses a cycle', () => {
    const a = plugin('a', { provides: [alpha], requires: [beta] });
    const b = plugin('b', { provides: [beta], requires: [gamma] });
    const c = plugin('c', { provides: [gamma], requires: [alpha] });
    expect(bootError(() => orderPlugins([a, b, c]))).toBe('Plugins depend on each other in a cycle: a -> b -> c -> a');
  });

  it('allows a plugin to require what it provides', () => {
    expect(orderPlugins([plugin('a', { provides: [alpha], requires: [alpha] })]).map((p) => p.id)).toEqual(['a']);
  });
});

describe('checkRouteParams', () => {
  it('accepts routes that share placeholder names', () => {
    expect(() =>
      checkRouteParams([
        { pluginId: 'a', path: '/api/v4/users/:id/block' },
        { pluginId: 'b', path: '/api/v4/users/:id/tokens/:token_id' },
        { pluginId: 'b', path: '/api/v4/users/self' },
      ]),
    ).not.toThrow();
  });

  it('fails on two names for one position, naming both routes', () => {
    expect(() =>
      checkRouteParams([
        { pluginId: 'core', path: '/api/v4/users/:id/block' },
        { pluginId: 'tokens', path: '/api/v4/users/:user_id/personal_access_tokens' },
      ]),
    ).toThrow(
      "Plugin 'tokens' route '/api/v4/users/:user_id/personal_access_tokens' names the placeholder ':user_id' where plugin 'core' route '/api/v4/users/:id/block' names it ':id'",
    );
  });
});
