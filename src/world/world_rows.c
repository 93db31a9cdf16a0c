// The last step's row order as the sweeps saw it, for viewers: which colour of the coloured order a
// contact's rows fell in (contact_order.h).
#include "world/world_internal.h"

int cs_world_contact_colour(const cs_world* w, int index)
{
    if (w->def.row_order != CS_ROW_ORDER_COLOURED || index < 0 || index >= w->contacts.count ||
        w->order.colour == NULL || w->stats.contacts != w->contacts.count)
    {
        return -1;
    }
    return w->order.colour[index];
}
