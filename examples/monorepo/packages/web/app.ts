export const title = 'Acme'
