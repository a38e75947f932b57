/** `swagger-ui-dist/absolute-path.js`: the package's folder (it ships no types). */
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string
  export default getAbsoluteFSPath
}
