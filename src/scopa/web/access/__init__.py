"""Who may come in: the guard in front of everything, the access code of a server on the local
network, the groups of a hosted server and how a device joins one."""
