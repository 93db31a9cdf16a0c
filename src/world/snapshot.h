// The snapshot format (cs_world_save_state / cs_world_load_state): shared by its writer and reader.
#ifndef CS_SNAPSHOT_H
#define CS_SNAPSHOT_H

#define CS_SNAPSHOT_VERSION        1
#define CS_SNAPSHOT_BODY_FIELDS    12
#define CS_SNAPSHOT_CONTACT_FIELDS 14

// The order of the numbers in each entry of "bodies" and "contacts" (the file names them too).
extern const char* const cs_snapshot_body_fields[CS_SNAPSHOT_BODY_FIELDS];
extern const char* const cs_snapshot_contact_fields[CS_SNAPSHOT_CONTACT_FIELDS];

#endif
