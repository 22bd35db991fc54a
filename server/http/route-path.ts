// The router (@koa/router) matches paths whatever their letter case, and a client may rely on it. Whatever else
// decides by path (the route table's groups, the dashboard API's public paths) must see a path the way the router
// does, or `/Dashboard/api/…` would reach its route without its group's guard.
import type { Context } from 'koa';

/** The request's path as the routes match it: lower case. */
export const routedPath = (ctx: Pick<Context, 'path'>): string => ctx.path.toLowerCase();
