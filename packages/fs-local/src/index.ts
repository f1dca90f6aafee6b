/** Public surface of the local filesystem adapter. */
export {
  createLocalFileSystem,
  DEFAULT_MAX_READ_BYTES,
  type LocalFileSystemOptions,
} from './local-file-system.ts'
export { FsError, isFsError } from './fs-error.ts'
export { applyEdit } from './edit-match.ts'
