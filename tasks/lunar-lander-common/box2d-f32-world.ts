/**
 * LunarLander's world on physics/box2d-f32/ (this project's float32 port of the Box2D 2.3 that pybox2d
 * 2.3.10 compiles), built as Gymnasium builds it with pybox2d: the moon (a static body at the
 * origin: the bottom edge with b2FixtureDef's defaults, then the terrain's edges), the lander,
 * its push, the two legs and their joints, in that order, in a new world per reset.
 */
import type { Body } from '../../physics/box2d-f32/body.ts';
import type { Contact } from '../../physics/box2d-f32/contact.ts';
import { box, edge, polygon } from '../../physics/box2d-f32/shapes.ts';
import { World } from '../../physics/box2d-f32/world.ts';
import { ANGLE, OMEGA, VX, VY, X, Y, type LanderScene, type LanderWorld } from './engine.ts';
import { CHUNKS, FPS, GRAVITY, LANDER_POLY, LEG_AWAY, LEG_DOWN, LEG_H, LEG_SPRING_TORQUE, LEG_W, POSITION_ITERATIONS, SCALE, VELOCITY_ITERATIONS, VIEWPORT_H, VIEWPORT_W, W } from './constants.ts';

// The shapes are the same in every world (Box2D copies a shape into its fixture).
const LANDER_SHAPE = polygon(LANDER_POLY.map(([x, y]) => [x / SCALE, y / SCALE] as const));
const LEG_SHAPE = box(LEG_W / SCALE, LEG_H / SCALE);

export class Float32LanderWorld implements LanderWorld {
  readonly body = new Float64Array(6);
  readonly legContact = new Uint8Array(2);
  gameOver = false;
  private world!: World;
  private lander!: Body;
  private readonly legs: Body[] = [];
  // Gymnasium's ContactDetector.
  private readonly listener = {
    beginContact: (c: Contact): void => {
      const a = c.bodyA, b = c.bodyB;
      if (a === this.lander || b === this.lander) this.gameOver = true;
      for (let k = 0; k < 2; k++) if (a === this.legs[k] || b === this.legs[k]) this.legContact[k] = 1;
    },
    endContact: (c: Contact): void => {
      const a = c.bodyA, b = c.bodyB;
      for (let k = 0; k < 2; k++) if (a === this.legs[k] || b === this.legs[k]) this.legContact[k] = 0;
    },
  };

  build(scene: LanderScene): void {
    const world = new World(0, GRAVITY, this.listener);
    this.world = world;
    this.gameOver = false;
    this.legContact.fill(0);
    const moon = world.createBody(false, 0, 0, 0);
    world.createFixture(moon, { shape: edge(0, 0, W, 0) });
    for (let k = 0; k < CHUNKS - 1; k++) {
      world.createFixture(moon, { shape: edge(scene.chunkX[k], scene.smoothY[k], scene.chunkX[k + 1], scene.smoothY[k + 1]), density: 0, friction: 0.1 });
    }
    const initialY = VIEWPORT_H / SCALE;
    const initialX = VIEWPORT_W / SCALE / 2;
    const lander = world.createBody(true, initialX, initialY, 0);
    world.createFixture(lander, { shape: LANDER_SHAPE, density: 5.0, friction: 0.1, category: 0x0010, mask: 0x001, restitution: 0 });
    this.lander = lander;
    lander.applyForceToCenter(scene.forceX, scene.forceY);
    this.legs.length = 0;
    for (const i of [-1, +1]) {
      const leg = world.createBody(true, initialX - (i * LEG_AWAY) / SCALE, initialY, i * 0.05);
      world.createFixture(leg, { shape: LEG_SHAPE, density: 1.0, restitution: 0, category: 0x0020, mask: 0x001 });
      world.createJoint({
        bodyA: lander, bodyB: leg,
        localAnchorA: [0, 0],
        localAnchorB: [(i * LEG_AWAY) / SCALE, LEG_DOWN / SCALE],
        // pybox2d's revoluteJointDef: referenceAngle = bodyB.angle - bodyA.angle (float32 angles, a Python float).
        referenceAngle: leg.sweep.a - lander.sweep.a,
        maxMotorTorque: LEG_SPRING_TORQUE,
        motorSpeed: +0.3 * i,
        lowerAngle: i === -1 ? +0.9 - 0.5 : -0.9,
        upperAngle: i === -1 ? +0.9 : -0.9 + 0.5,
      });
      this.legs.push(leg);
    }
    this.read();
  }

  read(): void {
    const l = this.lander, b = this.body;
    b[X] = l.xf.px;
    b[Y] = l.xf.py;
    b[ANGLE] = l.sweep.a;
    b[VX] = l.vx;
    b[VY] = l.vy;
    b[OMEGA] = l.w;
  }

  applyImpulse(ix: number, iy: number, px: number, py: number): void {
    this.lander.applyLinearImpulse(ix, iy, px, py);
  }

  step(): void {
    this.world.step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS);
  }

  awake(): boolean {
    return this.lander.awake;
  }

  dispose(): void {}
}
