/** Public surface of the testkit. */
export { tempTree, type TempTree, type TreeSpec } from './temp-tree.ts'
