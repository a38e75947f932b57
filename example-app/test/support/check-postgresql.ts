/** Global setup of the `postgresql` test project (see check-server.ts). */
import { checkConfiguredServer } from './check-server.js'

export default () => checkConfiguredServer('postgresql')
