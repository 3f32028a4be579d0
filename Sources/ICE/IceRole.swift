import STUN
