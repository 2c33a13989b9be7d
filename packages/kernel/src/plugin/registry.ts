/**
 * The kernel's registry (tsyringe). Its decorators keep constructor tokens as metadata,
 * which the reflect-metadata polyfill stores; every module that declares an injectable
 * class imports them from here, so the polyfill is always loaded first. Tokens are
 * always given explicitly (`@inject(token)`): no type metadata is emitted or needed.
 */
import 'reflect-metadata';

export { container, inject, injectable, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
