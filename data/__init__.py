"""Static game data (boards, races, powers, components, geometry, fonts), installed as the
package `smallworld_data`. Code reaches it through `engine.data.DATA_DIR`, never by path."""
