import { isDefaultEnvironment } from './names.js';
import type { StoredEnvironment } from './repo.js';

export function presentEnvironment(environment: StoredEnvironment) {
  return {
    name: environment.name,
    isDefault: isDefaultEnvironment(environment.name),
    createdAt: environment.createdAt,
  };
}
