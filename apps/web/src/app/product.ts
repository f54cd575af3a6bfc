/** The product's name, shown in titles and the footer. */
export const PRODUCT_TITLE = 'TradeDesk';
