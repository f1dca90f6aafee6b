/** Public surface of the testkit. */
export { tempTree, type TempTree, type TreeSpec } from './temp-tree.ts'
export { composeTestHost, type TestHost, type TestHostOptions } from './compose-test-host.ts'
