import type { InstructionPayload } from './instructions';

const PRICE_SCALE = 1_000_000;
const QUANTITY_SCALE = 1_000_000;
const FEE_RATE_PPM = 200;

/** The result of an accepted `PlaceOrder`: filled in full at its limit price, as a taker. */
export function placeOrderResult(account: string, order: InstructionPayload<'PlaceOrder'>, orderId: number, nowMs: number): unknown {
  const quantity = Number(order.quantity);
  const price = Number(order.price);
  const size = order.side === 'Buy' ? quantity : -quantity;
  return {
    PlaceOrder: {
      results: [
        {
          Success: {
            account,
            eventData: {
              fill: {
                abs_position_size_change: quantity,
                fee_amount: Math.round(((quantity * price * FEE_RATE_PPM) / 1_000_000) * PRICE_SCALE),
                fee_rate: FEE_RATE_PPM,
                is_adl: false,
                is_filled: true,
                is_liquidation: false,
                is_passive: false,
                order_quantity: quantity,
                original_order_quantity: quantity,
                price: Math.round(price * PRICE_SCALE),
                price_scale: PRICE_SCALE,
                quantity_scale: QUANTITY_SCALE,
                settlement_asset: 0,
                size,
                timestamp: nowMs,
                pnl: 0,
              },
            },
            instrument: order.instrument,
            orderId,
            orderIx: 0,
          },
        },
      ],
    },
  };
}
