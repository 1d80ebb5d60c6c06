/**
 * The fields the product reads of the signed-in person and of their pages: one list for the Graph client, the
 * session's login-path reader (which stays free of the client's code) and the server.
 */
export const ACCOUNT_FIELDS = 'id,name,access_token,category,picture,fan_count,tasks,unread_message_count'
export const ME_FIELDS = 'id,name,email,picture'
