// The dashboard's account routes: sign-in links, the sign-in pages, sessions, the signed-in user, the team.
import type Router from '@koa/router';
import type { Services } from '../services.js';

export function registerAccountRoutes(_router: Router, _services: Services): void {}
