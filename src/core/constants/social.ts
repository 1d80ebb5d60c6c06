/** Where the network's JS SDK is loaded from: the browser adapter loads it, the server preloads it. */
export const FB_SDK_URL = 'https://connect.facebook.net/en_US/sdk.js'
