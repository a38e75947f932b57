/** Global setup of the `mysql` test project (see check-server.ts). */
import { checkConfiguredServer } from './check-server.js'

export default () => checkConfiguredServer('mariadb')
